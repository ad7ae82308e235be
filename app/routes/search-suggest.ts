// Placeholder until search suggestions land.
export function loader() {
  return Response.json({ query: "", options: [] });
}
