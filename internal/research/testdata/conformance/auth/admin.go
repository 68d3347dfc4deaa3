package auth

// Admin satisfies Authenticatable through the Guest it embeds.
type Admin struct {
	Guest
	level int
}
