module example.com/goparseport

go 1.22
