module example.invalid/staticfs

go 1.19
