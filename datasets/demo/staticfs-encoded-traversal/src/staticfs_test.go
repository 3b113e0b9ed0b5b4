package staticfs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	cases := map[string]string{
		"/index.html":           "index.html",
		"/docs/guide.html":      "docs/guide.html",
		"/docs/a%20b.html":      "docs/a b.html",
		"/docs/./intro.html":    "docs/intro.html",
		"/docs//spaced//x.html": "docs/spaced/x.html",
	}
	for in, want := range cases {
		got, err := Resolve("/srv/site", in)
		if err != nil {
			t.Errorf("Resolve(%q): %v", in, err)
			continue
		}
		if want := filepath.Join("/srv/site", want); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestResolveRejectsDotDot(t *testing.T) {
	for _, in := range []string{"/../etc/passwd", "/docs/../../secret", "/a\x00b", "/bad%zzescape"} {
		if got, err := Resolve("/srv/site", in); !errors.Is(err, ErrBadPath) {
			t.Errorf("Resolve(%q) = %q, %v; want ErrBadPath", in, got, err)
		}
	}
}

func TestOpen(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(root, "/hello.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil || string(data) != "hello" {
		t.Fatalf("read %q, %v", data, err)
	}
}
