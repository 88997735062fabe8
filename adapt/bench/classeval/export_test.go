package classeval

// Names the tests use and the package does not export.
const (
	SolutionModule = solutionModule
	TestModule     = testModule
)

var (
	Read             = read
	TestModuleSource = testModuleSource
	TestNames        = testNames
)

func (c *Class) Method(name string) *Method                 { return c.method(name) }
func (c *Class) MethodNames() []string                      { return c.methodNames() }
func (c *Class) MethodSolution(name string) ([]byte, error) { return c.methodSolution(name) }
func (c *Class) ThirdParty() []string                       { return c.thirdParty() }
func (d Dependencies) ThirdParty() []string                 { return d.thirdParty() }
