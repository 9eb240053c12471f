package main

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
)

func cmdServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	file := fs.String("file", "", "scenario file (default: the built-in catalog)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	f, err := loadFile(*file)
	if err != nil {
		return err
	}
	r := chi.NewRouter()
	page := template.Must(template.New("list").Parse(`<!doctype html><meta charset="utf-8"><title>Lockstep</title>
<h1>Lockstep</h1><ul>{{range .Scenarios}}<li><b>{{.ID}}</b> {{.Title.En}} / {{.Title.Zh}}</li>{{end}}</ul>`))
	r.Get("/", func(w http.ResponseWriter, _ *http.Request) { _ = page.Execute(w, f) })
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Lockstep on http://%s (embedded Redis)\n", ln.Addr())
	srv := &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
