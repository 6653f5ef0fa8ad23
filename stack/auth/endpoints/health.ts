/** GET /health: GoTrue's health check. */
import { json, type Handler } from "../router.ts";

export const health: Handler = (c) =>
  json(c, {
    version: "teamboard-local",
    name: "GoTrue",
    description: "GoTrue is a user registration and authentication API",
  });
