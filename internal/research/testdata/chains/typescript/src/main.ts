import { route } from './web/router';

function main(): void {
  route('/login');
}

main();
