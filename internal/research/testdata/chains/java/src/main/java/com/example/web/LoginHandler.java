package com.example.web;

public class LoginHandler {
    public boolean handleLogin(String path) {
        return Auth.authenticate("guest", "secret");
    }
}
