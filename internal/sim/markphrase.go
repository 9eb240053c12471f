package sim

import "github.com/lockstep/lockstep/internal/fact"

// MarkPhrase says, in both languages, the moment a client reaches one of
// its lock's marks, as a fault or a comparison places something there:
// "as A enters its critical section", "right after A releases the lock".
// who "" reads "it" (the sentence is about that client already); an empty
// name is the client's start.
func MarkPhrase(name, who string) Text {
	it, zh := "it", ""
	if who != "" {
		it, zh = who, who+" "
	}
	switch name {
	case MarkEnter:
		return fact.Say("sim.mark-enter", Text{En: it, Zh: zh})
	case MarkAcquired:
		return fact.Say("sim.mark-acquired", Text{En: it, Zh: zh})
	case MarkLeave:
		return fact.Say("sim.mark-leave", Text{En: it, Zh: zh})
	case MarkRead:
		return fact.Say("sim.mark-read", Text{En: it, Zh: zh})
	case MarkDeduct:
		return fact.Say("sim.mark-deduct", Text{En: it, Zh: zh})
	case MarkReleased:
		return fact.Say("sim.mark-released", Text{En: it, Zh: zh})
	case "":
		return fact.Say("sim.mark-start", Text{En: it, Zh: zh})
	}
	if who != "" {
		return fact.Say("sim.mark-named-whose", who, name)
	}
	return fact.Say("sim.mark-named", name)
}
