// Package web holds the browser app's files: static/ (ES modules, CSS)
// and templates/ (html/template pages), embedded in the binary.
package web

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed static templates
var files embed.FS

// Embedded gives the static files and templates built into the binary.
func Embedded() (static, templates fs.FS) {
	st, _ := fs.Sub(files, "static")
	tp, _ := fs.Sub(files, "templates")
	return st, tp
}

// Disk gives the static files and templates read from dir (the web/
// directory of a checkout) on every request, for editing them live.
func Disk(dir string) (static, templates fs.FS) {
	return os.DirFS(filepath.Join(dir, "static")), os.DirFS(filepath.Join(dir, "templates"))
}
