package scenario

import (
	"strconv"

	"go.yaml.in/yaml/v4"

	"github.com/lockstep/lockstep/internal/sim"
)

// describe says what a node is, for "want X, got Y" messages, in both
// languages.
func describe(n *yaml.Node) sim.Text { return describeText(describeEn(n)) }

// describeEn says what a node is, in English.
func describeEn(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a map"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "nothing"
		case "!!int":
			return "the integer " + short(n.Value)
		case "!!float":
			return "the number " + short(n.Value)
		case "!!bool":
			return short(n.Value)
		}
		return strconv.Quote(short(n.Value))
	}
	return "nothing"
}

// short cuts long values for messages.
func short(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
