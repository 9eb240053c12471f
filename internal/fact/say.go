//go:generate go test -run TestThePageReadsTheCatalogue -update .

package fact

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Msg names a sentence of the catalogue's files (words/*.json): a dotted
// id whose first part is the package that says it ("server.hide-missing",
// "check.deadlock"), or "page." for a sentence only the page says. Go code
// names one as a string literal in Say; TestEverySaidSentenceIsInTheCatalogue
// holds those literals to the files.
type Msg string

// Languages are the catalogue's languages, by their file's name in
// words/, English first: the one whose sentences every other file must
// match, id for id.
var Languages = []string{"en", "zh"}

//go:embed words/*.json
var wordFiles embed.FS

// catalogueWords is every language's file: id to sentence, by language.
var catalogueWords = loadWords(wordFiles)

// loadWords reads each language's file. A file that does not parse is a
// fault of the build, caught by this package's tests, so it panics.
func loadWords(files fs.FS) map[string]map[Msg]string {
	out := map[string]map[Msg]string{}
	for _, lang := range Languages {
		src, err := fs.ReadFile(files, path.Join("words", lang+".json"))
		if err != nil {
			panic(err)
		}
		m := map[Msg]string{}
		if err := json.Unmarshal(src, &m); err != nil {
			panic(fmt.Sprintf("fact: words/%s.json: %v", lang, err))
		}
		out[lang] = m
	}
	return out
}

// Say is the sentence id names, in every language, its fmt verbs filled
// with args in order (a language that orders them otherwise writes
// %[2]s); an argument that is a Text is filled in with its words in that
// language. An id the catalogue lacks gives the id itself, in both: its
// tests list every id said.
func Say(id Msg, args ...any) Text {
	return Text{En: say("en", id, args), Zh: say("zh", id, args)}
}

// say is the sentence id names in lang, filled with args.
func say(lang string, id Msg, args []any) string {
	s, ok := catalogueWords[lang][id]
	if !ok {
		return string(id)
	}
	if len(args) == 0 {
		return s
	}
	in := make([]any, len(args))
	for i, a := range args {
		switch x := a.(type) {
		case Text:
			a = x.In(lang)
		case *Text:
			a = x.In(lang)
		}
		in[i] = a
	}
	return fmt.Sprintf(s, in...)
}

// In is the text's words in lang (English for a language it lacks).
func (t Text) In(lang string) string {
	if lang == "zh" {
		return t.Zh
	}
	return t.En
}

// Said is the sentence id names in lang, unfilled: the page's sentences,
// whose {name} placeholders the page fills (web/static/i18n.js fill).
func Said(lang string, id Msg) (string, bool) {
	s, ok := catalogueWords[lang][id]
	return s, ok
}

// Ids is every id of the catalogue, sorted; prefix, if not empty, keeps
// those that begin with it.
func Ids(prefix string) []Msg {
	var out []Msg
	for id := range catalogueWords[Languages[0]] {
		if strings.HasPrefix(string(id), prefix) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}
