import type { Route } from "./+types/register";
import { AuthCard } from "../components/account/AuthCard.tsx";
import { PasswordField } from "../components/account/PasswordField.tsx";
import { seo } from "../lib/seo.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({ title: "Register", description: "Create a ToolHub Wholesale account.", path: "/register", matches, noindex: true });
}

export default function Register() {
  return (
    <AuthCard title="Register" footer={{ text: "Already have an account?", linkText: "Login", to: "/login" }}>
      <form method="post" className="space-y-4" noValidate>
        <div>
          <label htmlFor="register-name" className="block text-sm font-semibold text-ink">
            Full name
          </label>
          <input id="register-name" name="fullName" type="text" autoComplete="name" className="field mt-1" />
        </div>
        <div>
          <label htmlFor="register-email" className="block text-sm font-semibold text-ink">
            Email
          </label>
          <input id="register-email" name="email" type="email" autoComplete="email" className="field mt-1" />
        </div>
        <PasswordField id="register-password" autoComplete="new-password" />
        <button type="submit" className="btn-primary w-full">
          Register
        </button>
      </form>
    </AuthCard>
  );
}
