func (c *Cache) Get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		return "", false
	}
	if !c.now().Before(e.expires) {
		delete(c.items, key)
		return "", false
	}
	return e.value, true
}
