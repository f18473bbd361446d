return {
  name = "huge",
  extends = "classic",
  params = { hand_size = 2147483647 },
}
