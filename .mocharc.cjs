// Unit tier. Under CI an `it.only`/`describe.only` fails the run instead of quietly running one test.
module.exports = {
  spec: ['out/test/unit/**/*.test.js'],
  timeout: 20000,
  reporter: 'spec',
  forbidOnly: Boolean(process.env.CI),
};
