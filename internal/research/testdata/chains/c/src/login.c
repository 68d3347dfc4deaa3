#include "login.h"
#include "auth.h"

int handle_login(const char *path) {
    return authenticate("guest", "secret");
}
