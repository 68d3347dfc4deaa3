int handle_login(const char *path);
