package server

// Over the server's memory budget, the sessions holding the most stop
// first. Refusing every session's next step alike, as the budget did,
// stopped a session stepping a lesson (a megabyte or two) as soon as
// twenty sessions seeking long runs had filled the budget: its small step
// was refused `memory-server` while they went on to their next slice
// (issue 36). Now a session is refused only when it holds at least half
// its fair share, the budget over the sessions holding a run; one holding
// less goes on, and the sessions over the budget are those that stop, at
// their next slice. What the small sessions may still add is bounded: each
// stops at half its share, half the budget for them all.

// fairShare is a session's fair share of the server's memory budget: the
// budget over the sessions that hold something (a run, a class's shared
// run, a search), at least one.
func (s *Server) fairShare() (share int64, holders int) {
	s.mu.Lock()
	for _, sess := range s.sessions {
		if sess.cost.Load()+sess.searchCost.Load() > 0 {
			holders++
		}
	}
	s.mu.Unlock()
	holders = max(holders, 1)
	return s.limits.MaxMemory / int64(holders), holders
}

// overBudget is the refusal of a session's run when the server is over
// its memory budget: nil when the session holds under half its fair share
// (its step goes on: the sessions holding the most are the ones stopped)
// or a fresh measure finds the budget not in use after all, else
// memory-server, naming what it holds beside its share.
func (s *session) overBudget() error {
	share, n := s.srv.fairShare()
	held := s.cost.Load() + s.searchCost.Load()
	if held < share/2 {
		return nil
	}
	used := s.srv.usedFresh()
	if used <= s.srv.limits.MaxMemory {
		return nil // a collection found the budget not in use: the garbage of runs gone
	}
	lim := s.srv.limits
	return coded("memory-server", map[string]any{"step": s.ls.Cursor(), "max": mib(lim.MaxMemory), "held": mib(held), "share": mib(share)},
		"the run stopped at step %d: the server's memory budget of %s is in use (about %s), and this run holds about %s, more than half its fair share of %s (the budget over the %d sessions holding a run): the sessions holding the most stop first; step back, or try again later",
		s.ls.Cursor(), mib(lim.MaxMemory), mib(used), mib(held), mib(share), n)
}
