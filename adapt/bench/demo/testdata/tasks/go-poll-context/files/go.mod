module example.com/gopollcontext

go 1.22
