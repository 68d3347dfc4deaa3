module example.com/router/v5

go 1.22
