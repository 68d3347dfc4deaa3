package com.example.auth;

public interface Authenticatable {
    boolean authenticate(String user, String password);
}
