package auth

// Authenticatable is what can log in and out.
type Authenticatable interface {
	Authenticate(user, password string) bool
	Logout()
}

// Guest satisfies Authenticatable through *Guest.
type Guest struct{ name string }

func (g *Guest) Authenticate(user, password string) bool { return user == g.name }
func (g *Guest) Logout()                                 {}
