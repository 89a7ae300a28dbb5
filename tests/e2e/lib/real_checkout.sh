# The checkout STANDIN_SCRIPT=real works in: a clone whose upstream gains a teammate's
# commit after it was cloned (the session pulls it), an assets/ directory to `cd` into,
# docs/ to be refused deleting, and a custom slash command. Source it; then
# `real_checkout DIR UPSTREAM`. REAL_TOOLS is what the session may run unasked.
REAL_TOOLS="Bash(git pull:*) Bash(cd:*) Bash(git add:*) Bash(git commit:*) Write Agent Task"
real_checkout() {
  local dir=$1 up=$2
  mkdir -p "$up" && (cd "$up" && git init -q -b main && git config user.email t@example.test \
    && git config user.name Teammate && echo "# Readme" >README.md && mkdir docs && echo notes >docs/a.md \
    && mkdir -p .claude/commands && printf 'Review $ARGUMENTS and add the app script.\n' >.claude/commands/review.md \
    && git add -A && git commit -qm init)
  git clone -q "$up" "$dir"
  (cd "$dir" && git config user.email a@example.test && git config user.name A && mkdir -p assets lib)
  (cd "$up" && git commit -q --allow-empty -m "Teammate's change")
}
