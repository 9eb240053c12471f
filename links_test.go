package lockstep

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// Every link between the project's own documents leads somewhere: README.md
// and docs/*.md link to files that exist and to headings those files have
// (as GitHub names a heading's anchor). A document moved or a heading
// renamed fails here until the links follow.
func TestDocLinksResolve(t *testing.T) {
	docs, _ := filepath.Glob("docs/*.md")
	docs = append(docs, "README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, doc := range docs {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(stripCode(string(src)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.Join(filepath.Dir(doc), file)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s, which does not exist", doc, target)
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !hasAnchor(t, path, anchor) {
				t.Errorf("%s links to %s: %s has no heading with that anchor", doc, target, path)
			}
		}
	}
}

// stripCode drops fenced code blocks, whose brackets are not links.
func stripCode(s string) string {
	var out []string
	in := false
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			continue
		}
		if !in {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// hasAnchor reports whether the Markdown file at path has a heading whose
// GitHub anchor is anchor.
func hasAnchor(t *testing.T, path, anchor string) bool {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(stripCode(string(src)), "\n") {
		if h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") && slug(h) == anchor {
			return true
		}
	}
	return false
}

// slug is GitHub's anchor of a heading: lower case, letters, digits,
// hyphens and underscores kept, spaces made hyphens, the rest dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}
