package com.example.web;

final class Auth {
    static boolean authenticate(String user, String password) {
        return !user.isEmpty() && !password.isEmpty();
    }
}
