module example.com/platform

go 1.26.0
