package com.example;

import com.example.web.Router;

public class Main {
    public static void main(String[] args) {
        new Router().route("/login");
    }
}
