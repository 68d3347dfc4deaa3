#ifndef ROUTER_H
#define ROUTER_H
void route(const char *path);
#endif
