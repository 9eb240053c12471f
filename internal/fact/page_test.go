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

// pageIds finds the page ids (without page.) that a page file names: its
// data-i18n attributes (data-i18n, -title, -group, -label, set in HTML or
// from a script), the literal first argument of i18n.js's t and fill
// under whatever local names the file imports them by (both branches of
// a ?: too), the calls of a local helper that prefixes its key (const
// say = (key, …) => fill('liverec.' + key, …)), and the keys of the
// keyboard's help (KEYS: ['Space', 'kStep']). Ids built at run time from
// other names (a fault's f<Kind>, a mark's name.<n>, a verdict's
// verdict.<n>) are held by their own tests (TestAddingAFaultKindFollowsTheChecklist,
// TestEveryMarkHasAName).
func pageIds(src string) []string {
	found := map[string]bool{}
	add := func(ids ...string) {
		for _, id := range ids {
			found[id] = true
		}
	}
	lit := `'([A-Za-z][\w.]*)'`
	for _, m := range regexp.MustCompile(`data-i18n(?:-title|-group|-label)?(?:="([^"]+)"|'\s*:\s*`+lit+`)`).FindAllStringSubmatch(src, -1) {
		add(m[1] + m[2])
	}
	for _, m := range regexp.MustCompile(`dataset\.i18n(?:Title|Group|Label)?\s*=\s*(?:[^;'\n]*\?\s*`+lit+`\s*:\s*)?`+lit).FindAllStringSubmatch(src, -1) {
		if m[1] != "" {
			add(m[1])
		}
		add(m[2])
	}
	// The names t and fill go by here: their own, or an import's alias
	// (t as tr); i18n.js itself calls its own, and said.
	names := []string{}
	if imp := regexp.MustCompile(`import \{([^}]*)\} from './i18n.js'`).FindStringSubmatch(src); imp != nil {
		for _, part := range strings.Split(imp[1], ",") {
			f := strings.Fields(part)
			if len(f) > 0 && (f[0] == "t" || f[0] == "fill") {
				names = append(names, f[len(f)-1])
			}
		}
	}
	if strings.Contains(src, "\nexport function t(key, lang)") {
		names = append(names, "t", "fill", "said")
	}
	// A local helper that passes its first parameter on as the key, maybe
	// under a prefix of its own: const say = (key, …) => fill('liverec.' + key, …).
	helpers := map[string]string{}
	for _, n := range names {
		passes := regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(n) + `\((?:'([\w.]+\.)' \+ )?(\w+)\b`)
		for _, m := range regexp.MustCompile(`(?m)const (\w+) = \((\w+)[^)\n]*\) =>(.*)$`).FindAllStringSubmatch(src, -1) {
			for _, c := range passes.FindAllStringSubmatch(m[3], -1) {
				if c[2] == m[2] {
					helpers[m[1]] = c[1]
				}
			}
		}
	}
	for _, n := range names {
		if _, shadowed := helpers[n]; !shadowed {
			helpers[n] = "" // else a helper of the file's own by the same name (pair.js's tr)
		}
	}
	for n, prefix := range helpers {
		call := regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(n) + `\(`)
		for _, at := range call.FindAllStringIndex(src, -1) {
			for _, id := range keysIn(firstArg(src[at[1]:])) {
				add(prefix + id)
			}
		}
		// A table of keys looked up by what is shown: t(KIND[e.kind], lang).
		for _, m := range regexp.MustCompile(`(?:^|[^\w.])`+regexp.QuoteMeta(n)+`\(([A-Z]\w*)\[`).FindAllStringSubmatch(src, -1) {
			if table := regexp.MustCompile(`const ` + m[1] + ` = \{([^}]*)\}`).FindStringSubmatch(src); table != nil {
				for _, v := range regexp.MustCompile(`:\s*`+lit).FindAllStringSubmatch(table[1], -1) {
					add(prefix + v[1])
				}
			}
		}
	}
	// A method that says its key capitalised after a prefix: tr(key) {
	// return fill('explore' + key[0].toUpperCase() + key.slice(1), …) }.
	for _, m := range regexp.MustCompile(`\n\s+(\w+)\((\w+)[^)]*\) \{\n\s+return (?:t|fill)\('(\w+)' \+ (\w+)\[0\]\.toUpperCase\(\) \+ (\w+)\.slice\(1\)`).FindAllStringSubmatch(src, -1) {
		if m[2] != m[4] || m[2] != m[5] || !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(m[0], n+"(") }) {
			continue
		}
		for _, c := range regexp.MustCompile(`this\.`+m[1]+`\(`+lit).FindAllStringSubmatch(src, -1) {
			add(m[3] + strings.ToUpper(c[1][:1]) + c[1][1:])
		}
	}
	if strings.Contains(src, "\nexport const KEYS = [") {
		for _, m := range regexp.MustCompile(`\['[^']*', `+lit+`\]`).FindAllStringSubmatch(src, -1) {
			add(m[1])
		}
	}
	return slices.Sorted(maps.Keys(found))
}

// Every id a page file says is in the catalogue: a key the page asks for
// that words.js lacks would show as the key itself. The ids are found by
// pageIds, which is shown first to find them in a sample of each way the
// page names one.
func TestThePageSaysOnlyCatalogueIds(t *testing.T) {
	sample := `import { t as tr, fill } from './i18n.js';
const say = (key, lang, vals = {}) => fill('liverec.' + key, lang, vals);
el('button', { 'data-i18n': 'aKey', 'data-i18n-title': 'aTip' });
$('x').dataset.i18n = on ? 'bOn' : 'bOff';
tr(open ? 'cLess' : 'cMore', lang); fill('dFill', lang, { n }); say('again', lang); t('notImported', lang);
const KIND = { send: 'fKind' }; tr(KIND[e.kind], lang); tr(p.reason === 'x' ? 'gA' : s || 'gB', L); fill(key + 'Over', L);
  tr(key, vars = {}) {
    return fill('explore' + key[0].toUpperCase() + key.slice(1), this.lang(), vars);
  }
this.tr('title');
<span data-i18n="eSpan">`
	want := []string{"aKey", "aTip", "bOff", "bOn", "cLess", "cMore", "dFill", "eSpan", "exploreTitle", "fKind", "gA", "gB", "liverec.again"}
	if got := pageIds(sample); !slices.Equal(got, want) {
		t.Errorf("pageIds finds %v in the sample, want %v", got, want)
	}
	root := filepath.Join("..", "..", "web")
	files, _ := filepath.Glob(filepath.Join(root, "static", "*.js"))
	html, _ := filepath.Glob(filepath.Join(root, "templates", "*.html"))
	n := 0
	for _, p := range append(files, html...) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range pageIds(string(src)) {
			n++
			if _, ok := Said(Languages[0], Msg("page."+id)); !ok {
				t.Errorf("%s says the page id %s, which the catalogue lacks: add page.%s to internal/fact/words/*.json, then go generate ./internal/fact", strings.TrimPrefix(filepath.ToSlash(p), "../../"), id, id)
			}
		}
	}
	if n < 300 {
		t.Errorf("the page's files name %d ids: the test reads the wrong directory, or pageIds misses most", n)
	}
}

// firstArg is the first argument of a call whose "(" src follows: up to
// its "," or ")" outside brackets and quotes.
func firstArg(src string) string {
	depth, quote := 0, byte(0)
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ',' || c == ')' || c == ']' || c == '}') && depth == 0:
			return src[:i]
		case c == ')' || c == ']' || c == '}':
			depth--
		}
	}
	return src
}

// keysIn is the keys an argument gives: its literals that are what it
// says ('a', x ? 'a' : 'b', s || 'a'), not a part of one (key + 'Over')
// nor what a condition compares with (p.reason === 'faults' ? …).
func keysIn(arg string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`'([A-Za-z][\w.]*)'`).FindAllStringSubmatchIndex(arg, -1) {
		before := strings.TrimSpace(arg[:m[0]])
		after := strings.TrimSpace(arg[m[1]:])
		if strings.HasSuffix(before, "+") || strings.HasPrefix(after, "+") || strings.HasSuffix(before, "=") ||
			strings.HasPrefix(after, "=") || strings.HasPrefix(after, ".") || strings.HasPrefix(after, "[") {
			continue
		}
		out = append(out, arg[m[2]:m[3]])
	}
	return out
}

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
