import { handleLogin } from './login';

export function route(path: string): void {
  if (path === '/login') {
    handleLogin(path);
  }
}
