module example.com/solution

go 1.23.0

require golang.org/x/exp v0.0.0-20240506185415-9bf2ced13842
