module example.com/api

go 1.22

require (
	example.com/lib v0.0.0-00010101000000-000000000000
	github.com/go-chi/chi/v5 v5.0.12
	github.com/stretchr/testify v1.9.0 // indirect
)

replace example.com/lib => ../lib
