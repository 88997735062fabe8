module example.com/gowordfreq

go 1.22
