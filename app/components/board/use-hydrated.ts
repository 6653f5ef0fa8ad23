import { useEffect, useState } from "react";

/** False in the server's HTML and the first browser render; true once React runs here (controls that need JavaScript). */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
