package gitops

// SameRepository is sameRepository, for the external tests.
var SameRepository = sameRepository

// LsFilesMatcher is lsFilesMatcher, for the external tests.
var LsFilesMatcher = lsFilesMatcher
