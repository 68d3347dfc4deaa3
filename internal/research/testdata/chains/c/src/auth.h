int authenticate(const char *user, const char *password);
