package gitops

// SameRepository is sameRepository, for the external tests.
var SameRepository = sameRepository
