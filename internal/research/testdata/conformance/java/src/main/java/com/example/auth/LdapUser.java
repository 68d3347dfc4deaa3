package com.example.auth;

public class LdapUser implements Authenticatable {
    @Override
    public boolean authenticate(String user, String password) {
        return true;
    }
}
