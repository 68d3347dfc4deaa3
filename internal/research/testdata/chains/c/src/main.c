#include "router.h"

int main(void) {
    route("/login");
    return 0;
}
