package web

// authenticate checks a password.
func authenticate(user, password string) bool {
	return user != "" && password != ""
}

// authenticateToken is another check, never called.
func authenticateToken(token string) bool { return token != "" }
