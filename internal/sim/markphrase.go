package sim

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
		return Text{En: "as " + it + " enters its critical section", Zh: zh + "刚进入临界区"}
	case MarkAcquired:
		return Text{En: "as " + it + " takes the lock", Zh: zh + "刚拿到锁"}
	case MarkLeave:
		return Text{En: "as " + it + " leaves its critical section, before its release", Zh: zh + "刚离开临界区、还没释放锁"}
	case MarkRead:
		return Text{En: "right after " + it + " reads the stock, before it writes it back", Zh: zh + "刚读完库存、还没写回"}
	case MarkDeduct:
		return Text{En: "right after " + it + " writes the stock back, still inside", Zh: zh + "刚写回库存、还在临界区内"}
	case MarkReleased:
		return Text{En: "right after " + it + " releases the lock", Zh: zh + "刚释放锁"}
	case "":
		return Text{En: "as " + it + " starts", Zh: zh + "刚启动"}
	}
	if who != "" {
		return Text{En: "at " + who + "'s " + name + " mark", Zh: "在 " + who + " 的 " + name + " 标记处"}
	}
	return Text{En: "at its " + name + " mark", Zh: "在 " + name + " 标记处"}
}
