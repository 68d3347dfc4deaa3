#include <string.h>
#include "router.h"
#include "login.h"

void route(const char *path) {
    if (strcmp(path, "/login") == 0) {
        handle_login(path);
    }
}
