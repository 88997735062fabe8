package mine

// The names the tests reach that are not part of the API.

type Origin = origin

var OriginOf = originOf
