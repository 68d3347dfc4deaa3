package web

// Route dispatches a request path to its handler.
func Route(path string) {
	switch path {
	case "/login":
		HandleLogin(path)
	}
}
