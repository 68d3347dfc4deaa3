import { authenticate } from '../auth';

export function handleLogin(path: string): boolean {
  return authenticate('guest', 'secret');
}
