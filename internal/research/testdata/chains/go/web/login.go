package web

import "log"

// HandleLogin serves the login form.
func HandleLogin(path string) {
	if !authenticate("guest", "secret") {
		log.Println("denied", path)
	}
}
