package devices

// Robot has an Authenticate method of another arity: it does not satisfy
// auth.Authenticatable.
type Robot struct{}

func (r Robot) Authenticate(token string) bool { return token != "" }
func (r Robot) Logout()                        {}

// Clock has Authenticate but no Logout.
type Clock struct{}

func (c Clock) Authenticate(user, password string) bool { return false }

// Kiosk satisfies it from another package.
type Kiosk struct{}

func (k Kiosk) Authenticate(user, password string) bool { return true }
func (k Kiosk) Logout()                                 {}
