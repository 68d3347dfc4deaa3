package com.example.web;

public class Router {
    private final LoginHandler login = new LoginHandler();

    public void route(String path) {
        if (path.equals("/login")) {
            login.handleLogin(path);
        }
    }
}
