package fact

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// namedInFull are the first parts of the page's ids that a page file names
// in full, as a quoted literal, where it says them ('class.join' in
// class.js, 'remote.title' in remote.js): each such id of the catalogue
// must be named by some page file. (The page says error.… from the codes
// the server sends; internal/server's TestEveryErrorCodeIsInThePageCatalogue
// holds those.)
var namedInFull = []string{"class", "remote"}

// Every id a page file names (a quoted literal whose first part is a page
// id's: 'class.…', 'remote.…', 'error.…') is in the catalogue
// as page.…, so that a page cannot say an id the catalogue lacks; and
// every id of the parts the page names in full is named by a page file,
// so that none is left behind when the page stops saying it.
func TestThePageNamesOnlyTheCataloguesIds(t *testing.T) {
	en := catalogueWords[Languages[0]]
	parts := map[string]bool{}
	for id := range en {
		if rest, ok := strings.CutPrefix(string(id), "page."); ok {
			parts[strings.SplitN(rest, ".", 2)[0]] = true
		}
	}
	for _, p := range namedInFull {
		if !parts[p] {
			t.Errorf("the catalogue has no page.%s.… id: take %q off namedInFull", p, p)
		}
	}
	scripts, err := filepath.Glob(filepath.Join("..", "..", "web", "static", "*.js"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no page scripts in web/static: %v", err)
	}
	literal := regexp.MustCompile(`['"]([a-z]+)\.([a-z0-9-]+(?:\.[a-z0-9-]+)*)['"]`)
	named := map[string][]string{} // id → the files that name it
	for _, f := range scripts {
		if filepath.Base(f) == "words.js" { // generated from the catalogue
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllStringSubmatch(string(src), -1) {
			if parts[m[1]] {
				id := m[1] + "." + m[2]
				named[id] = append(named[id], filepath.Base(f))
			}
		}
	}
	if len(named) < 50 {
		t.Fatalf("the page scripts name %d of the catalogue's ids: the test reads less than it should", len(named))
	}
	for _, id := range slices.Sorted(maps.Keys(named)) {
		files := named[id]
		if _, ok := en[Msg("page."+id)]; !ok {
			t.Errorf("%s names %q, which words/en.json lacks (as page.%s)", strings.Join(slices.Compact(files), ", "), id, id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(en)) {
		rest, ok := strings.CutPrefix(string(id), "page.")
		if !ok || !slices.Contains(namedInFull, strings.SplitN(rest, ".", 2)[0]) {
			continue
		}
		if _, ok := named[rest]; !ok {
			t.Errorf("words/en.json has %s, which no page script names ('%s'): take it off, or say it", id, rest)
		}
	}
}
