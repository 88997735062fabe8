module example.com/solution

go 1.23.0

require golang.org/x/mod v0.8.0
