// Package staticfs maps the URL paths of a static site to files below a root directory.
package staticfs

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// ErrBadPath is returned for URL paths that are malformed or would leave the root directory.
var ErrBadPath = errors.New("staticfs: bad path")

// Resolve returns the file that the URL path urlPath (percent-encoded, as in a request line)
// names below root. It refuses paths that would leave root.
func Resolve(root, urlPath string) (string, error) {
	if strings.Contains(urlPath, "..") || strings.ContainsRune(urlPath, 0) {
		return "", ErrBadPath
	}
	name, err := url.PathUnescape(urlPath)
	if err != nil {
		return "", ErrBadPath
	}
	return filepath.Join(root, filepath.FromSlash(name)), nil
}

// Open opens the file that urlPath names below root.
func Open(root, urlPath string) (*os.File, error) {
	name, err := Resolve(root, urlPath)
	if err != nil {
		return nil, err
	}
	return os.Open(name)
}
