from .login import handle_login


def route(path):
    if path == "/login":
        return handle_login(path)
