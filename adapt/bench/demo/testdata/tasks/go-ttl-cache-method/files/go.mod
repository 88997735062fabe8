module example.com/gottlcache

go 1.22
