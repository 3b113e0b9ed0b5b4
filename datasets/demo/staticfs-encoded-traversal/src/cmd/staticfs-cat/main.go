// Command staticfs-cat prints the file that a URL path names below a site root:
//
//	staticfs-cat ROOT URLPATH
package main

import (
	"fmt"
	"io"
	"os"

	"example.invalid/staticfs"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: staticfs-cat ROOT URLPATH")
		os.Exit(2)
	}
	f, err := staticfs.Open(os.Args[1], os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "staticfs-cat:", err)
		os.Exit(1)
	}
	defer f.Close()
	if _, err := io.Copy(os.Stdout, f); err != nil {
		fmt.Fprintln(os.Stderr, "staticfs-cat:", err)
		os.Exit(1)
	}
}
