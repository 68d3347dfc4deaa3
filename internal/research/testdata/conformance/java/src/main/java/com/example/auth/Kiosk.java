package com.example.auth;

public class Kiosk {
    public boolean authenticate(String user, String password) {
        return false;
    }
}
