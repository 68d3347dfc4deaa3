package main

import "example.com/app/web"

func main() {
	web.Route("/login")
}
